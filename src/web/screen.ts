/** What a view puts on the page: its contents (the first heading is an h1) and the document's title. */
export interface Screen {
  title: string
  content: Array<Node | false>
}
