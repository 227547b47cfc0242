#!/usr/bin/env bash
# Runs compose.yaml's services with podman, as the file defines them (environment, commands,
# health checks, stop grace period, the Caddyfile), and checks what the two replicas behind the
# proxy promise: one rate limit across both (a 429 once it is spent, whichever replica answers),
# and a replica stopped with SIGTERM under load drained with no error at the proxy.
#
#   scripts/compose-test.sh [/path/to/enem-data]          # npm run test:compose
#
# Like scripts/container-test.sh: the app image is built once from the Dockerfile on a local Node
# base (scripts/podman-base.sh), and every container runs on the host's network with loopback
# ports in place of the compose network's names (scripts/compose-probe.ts maps them). No registry
# is reachable here, so the proxy and Redis run Debian's caddy and redis-server packages in an
# image made from the local Debian base (kept, like the base images, as a cache for the next run).
set -euo pipefail
cd "$(dirname "$0")/.."

DATA_DIR="$(cd "${1:-${ENEM_DATA_DIR:-data/sample}}" && pwd)"
source scripts/podman-base.sh
APP_IMAGE=localhost/enem-api:compose-test
SERVICES_IMAGE=localhost/enem-compose-services:debian-bookworm
PREFIX="enem-compose-test-$$"
WORK="$(mktemp -d)"

images_before_build=""
cleanup () {
  for name in proxy api-1 api-2 redis; do podman rm -f "$PREFIX-$name" >/dev/null 2>&1 || true; done
  [ -z "$images_before_build" ] || remove_images_made_since "$images_before_build" "$APP_IMAGE"
  rm -rf "$WORK"
}
trap cleanup EXIT

ensure_base_images "$WORK"
if ! podman image exists "$SERVICES_IMAGE"; then
  step "making $SERVICES_IMAGE: Debian's caddy and redis-server"
  mkdir -p "$WORK/services"
  cat > "$WORK/services/Containerfile" <<CONTAINERFILE
FROM $DEBIAN_IMAGE
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends caddy redis-server redis-tools >/dev/null \
 && rm -rf /var/lib/apt/lists/*
CONTAINERFILE
  podman build --quiet "${PODMAN_RUN_FLAGS[@]}" -t "$SERVICES_IMAGE" "$WORK/services" >/dev/null
fi

images_before_build="$WORK/images-before-build"
podman images -a -q --no-trunc | sort -u > "$images_before_build"
step "building the app image once for both replicas (Dockerfile, NODE_IMAGE=$NODE_IMAGE)"
if ! podman build --format docker "${PODMAN_RUN_FLAGS[@]}" --build-arg "NODE_IMAGE=$NODE_IMAGE" -t "$APP_IMAGE" . > "$WORK/build.log" 2>&1; then
  tail -n 40 "$WORK/build.log" >&2
  exit 1
fi

step "running compose.yaml's services on $DATA_DIR"
APP_IMAGE="$APP_IMAGE" SERVICES_IMAGE="$SERVICES_IMAGE" CONTAINER_PREFIX="$PREFIX" DATA_DIR="$DATA_DIR" \
  PODMAN_RUN_FLAGS="${PODMAN_RUN_FLAGS[*]}" \
  timeout 300 node --import tsx scripts/compose-probe.ts 2> >(quiet_systemd)
step "passed"
