#!/usr/bin/env bash
# Builds the container image (Dockerfile) with podman and checks it on a dataset: /readyz, a
# question, one of its images, a 429 through the image's rate limit, the image's HEALTHCHECK
# command, the `node` user, no dev tool in the image, the data check its start log names, a clean
# stop on SIGTERM; then, with no dataset mounted, that it serves the built-in sample. It removes
# the images it built when it ends. Used by .ci/run; run it by hand the same way:
#
#   scripts/container-test.sh /path/to/enem-data
#
# Podman, the local base images and the sandbox's flags: scripts/podman-base.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

DATA_DIR="$(cd "${1:-${ENEM_DATA_DIR:-data/sample}}" && pwd)"
source scripts/podman-base.sh
APP_IMAGE=localhost/enem-api:test
CONTAINER="enem-api-test-$$"
WORK="$(mktemp -d)"

images_before_build=""
cleanup () {
  # One at a time: podman 4.3 stops at a name that is already gone.
  for name in "$CONTAINER" "$CONTAINER-sample"; do podman rm -f "$name" >/dev/null 2>&1 || true; done
  # Every image the build made (the app image, the build stage's, their cached layers: over 500 MB
  # a run); the base images stay (scripts/podman-base.sh).
  [ -z "$images_before_build" ] || remove_images_made_since "$images_before_build" "$APP_IMAGE"
  rm -rf "$WORK"
}
trap cleanup EXIT

ensure_base_images "$WORK"

images_before_build="$WORK/images-before-build"
podman images -a -q --no-trunc | sort -u > "$images_before_build"
step "building the image (Dockerfile, NODE_IMAGE=$NODE_IMAGE)"
# --format docker: the OCI format has no HEALTHCHECK.
if ! podman build --format docker "${PODMAN_RUN_FLAGS[@]}" --build-arg "NODE_IMAGE=$NODE_IMAGE" -t "$APP_IMAGE" . > "$WORK/build.log" 2>&1; then
  tail -n 40 "$WORK/build.log" >&2
  exit 1
fi

if [ -n "${DATASET_SOURCES:-}" ]; then
  step "building every exam in the image from local copies (node dist/dataset.js --source …)"
  # The image runs as `node` (uid 1000): the folder it writes into is made writable for it.
  chmod 0755 "$WORK"
  mkdir -m 0777 "$WORK/volume"
  mounts=()
  sources=()
  for pair in $DATASET_SOURCES; do
    name="${pair%%=*}"
    mounts+=(-v "$(cd "${pair#*=}" && pwd):/sources/$name:ro")
    sources+=(--source "$name=/sources/$name")
  done
  podman run --rm "${PODMAN_RUN_FLAGS[@]}" -v "$WORK/volume:/volume" "${mounts[@]}" "$APP_IMAGE" \
    node dist/dataset.js /volume/full "${sources[@]}" 2> >(quiet_systemd) | tail -n 1
  DATA_DIR="$WORK/volume/full"
fi

port="$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close() })")"
step "starting it on $DATA_DIR, port $port"
podman run -d --name "$CONTAINER" "${PODMAN_RUN_FLAGS[@]}" \
  -v "$DATA_DIR:/data:ro" -e ENEM_DATA_DIR=/data \
  -e HOST=127.0.0.1 -e PORT="$port" -e PUBLIC_URL="http://127.0.0.1:$port" \
  -e RATE_LIMIT_MAX=20 -e RATE_LIMIT_WINDOW=1m -e LOG_LEVEL=warn --health-interval=disable \
  "$APP_IMAGE" >/dev/null 2> >(quiet_systemd)

step "checking it over HTTP"
# A folder `npm run dataset` built says how many exams it holds: every one must be served.
expected_exams=()
[ ! -f "$DATA_DIR/manifest.json" ] || expected_exams=("$(node -p "require('$DATA_DIR/manifest.json').totals.exams")")
if ! timeout 120 node --import tsx scripts/container-probe.ts "http://127.0.0.1:$port" 20 "${expected_exams[@]}"; then
  echo "--- container log ---" >&2
  podman logs "$CONTAINER" 2>&1 | tail -n 30 >&2
  exit 1
fi

if [ -f "$DATA_DIR/manifest.json" ]; then
  step "checking a file named with a percent escape is served"
  DATA_DIR="$DATA_DIR" BASE="http://127.0.0.1:$port" timeout 60 node --input-type=module -e "
    import { readFileSync, readdirSync } from 'node:fs'
    const dir = process.env.DATA_DIR
    const named = readdirSync(dir, { recursive: true }).find((file) => file.includes('%') && !file.endsWith('.json'))
    if (named === undefined) throw new Error('no file named with a percent escape in ' + dir)
    const answer = await fetch(process.env.BASE + '/files/' + named.split('/').map(encodeURIComponent).join('/'))
    const bytes = Buffer.from(await answer.arrayBuffer())
    if (answer.status !== 200 || !bytes.equals(readFileSync(dir + '/' + named))) throw new Error('/files/' + named + ': ' + answer.status)
    console.log('/files/' + named + ': 200, ' + bytes.length + ' bytes')
  " || { echo "container-test: the built folder is not served whole" >&2; exit 1; }
fi

step "running the image's HEALTHCHECK"
podman healthcheck run "$CONTAINER" >/dev/null || { echo "container-test: the HEALTHCHECK failed" >&2; exit 1; }
[ "$(podman exec "$CONTAINER" id -un)" = node ] || { echo "container-test: the server does not run as the node user" >&2; exit 1; }
podman exec -w /app "$CONTAINER" node -e "for (const tool of ['tsx', 'esbuild', 'typescript', 'eslint']) { try { require.resolve(tool); console.error('container-test: dev tool ' + tool + ' is in the image'); process.exit(1) } catch {} }"

step "running the data check the start log names, and npm run check-data"
# The start log's warning names the command that checks the dataset where the server runs.
hint="$(podman logs "$CONTAINER" 2>&1 | sed -n 's/.*dataset warnings:.*(details: `\([^`]*\)`).*/\1/p' | head -n 1)"
[ -n "$hint" ] || { echo "container-test: no dataset-warnings line naming a data check in the log" >&2; podman logs "$CONTAINER" 2>&1 | tail -n 5 >&2; exit 1; }
podman exec "$CONTAINER" sh -c "$hint" > "$WORK/check-data.txt" 2>&1 || { echo "container-test: \`$hint\` failed in the container" >&2; tail -n 5 "$WORK/check-data.txt" >&2; exit 1; }
grep -q '^Summary: 0 errors' "$WORK/check-data.txt" || { echo "container-test: \`$hint\` printed no summary" >&2; exit 1; }
podman exec -w /app "$CONTAINER" npm run check-data --silent -- --summary /data > "$WORK/check-data.txt" 2>&1 || { echo "container-test: npm run check-data failed in the container" >&2; tail -n 5 "$WORK/check-data.txt" >&2; exit 1; }

step "stopping it with SIGTERM"
podman stop --time 15 "$CONTAINER" >/dev/null 2> >(quiet_systemd)
code="$(podman inspect --format '{{.State.ExitCode}}' "$CONTAINER")"
[ "$code" = 0 ] || { echo "container-test: exit code $code after SIGTERM, expected 0" >&2; podman logs "$CONTAINER" 2>&1 | tail -n 30 >&2; exit 1; }
step "starting it with no dataset mounted: the built-in sample"
podman run -d --name "$CONTAINER-sample" "${PODMAN_RUN_FLAGS[@]}" -e HOST=127.0.0.1 -e PORT="$port" -e LOG_LEVEL=warn \
  --health-interval=disable "$APP_IMAGE" >/dev/null 2> >(quiet_systemd)
expected="$(node -e "console.log(require('./data/sample/exams.json').length)")"
served="$(timeout 90 node -e "
  const get = () => fetch('http://127.0.0.1:$port/v1/exams').then((r) => r.json()).then((exams) => console.log(exams.length), () => setTimeout(get, 500))
  get()")"
podman rm -f "$CONTAINER-sample" >/dev/null 2> >(quiet_systemd)
[ "$served" = "$expected" ] || { echo "container-test: with no dataset mounted, $served exams served, expected the sample's $expected" >&2; exit 1; }
step "passed"
