#!/bin/sh
# Creates the namespace the worker uses and registers the custom search attributes the session workflow
# upserts (see src/worker/session-search-attributes.ts), once the server answers. Runs in the
# temporalio/admin-tools image with TEMPORAL_ADDRESS set. Safe to run again: what exists is left alone.
set -eu

ADDRESS=${TEMPORAL_ADDRESS:?TEMPORAL_ADDRESS must name the Temporal frontend}
NAMESPACE=${TEMPORAL_NAMESPACE:-default}
RETENTION=${TEMPORAL_NAMESPACE_RETENTION:-72h}
ATTRIBUTES="AgentName=Keyword AgentStatus=Keyword AgentTurns=Int AgentTokens=Int AgentCost=Double"

# Retries a command every 2 s for up to a minute: the server and a new namespace take a while to answer.
retry() {
  attempt=1
  until "$@"; do
    if [ "$attempt" -ge 30 ]; then
      echo "gave up after $attempt attempts: $*" >&2
      return 1
    fi
    attempt=$((attempt + 1))
    sleep 2
  done
}

namespace_exists() {
  temporal operator namespace describe --address "$ADDRESS" --namespace "$NAMESPACE" >/dev/null 2>&1
}

create_namespace() {
  namespace_exists || temporal operator namespace create --address "$ADDRESS" --namespace "$NAMESPACE" --retention "$RETENTION"
}

# Registers one attribute unless the namespace lists it already.
ensure_attribute() {
  if temporal operator search-attribute list --address "$ADDRESS" --namespace "$NAMESPACE" | grep -qw "$1"; then
    return 0
  fi
  temporal operator search-attribute create --address "$ADDRESS" --namespace "$NAMESPACE" --name "$1" --type "$2"
}

retry temporal operator cluster health --address "$ADDRESS"
retry create_namespace
retry namespace_exists
for spec in $ATTRIBUTES; do
  retry ensure_attribute "${spec%%=*}" "${spec#*=}"
done
echo "namespace $NAMESPACE is ready with search attributes: $ATTRIBUTES"
