#!/bin/sh
# Creates or upgrades Temporal's two PostgreSQL databases (history and visibility) before the server starts.
# Runs in the temporalio/admin-tools image; the connection comes from SQL_PLUGIN/SQL_HOST/SQL_PORT/SQL_USER/
# SQL_PASSWORD. Safe on every `docker compose up`: a database that is already set up is only upgraded.
set -eu

SCHEMA_ROOT=${TEMPORAL_SCHEMA_DIR:-/etc/temporal/schema}/postgresql/v12

prepare() {
  database=$1
  versioned=$SCHEMA_ROOT/$2/versioned
  # An existing schema answers update-schema (a no-op when current); only a database without one is set up
  # from zero, because setup-schema is meant for an empty database.
  if temporal-sql-tool --database "$database" update-schema --schema-dir "$versioned" 2>/dev/null; then
    echo "database $database is up to date"
    return
  fi
  echo "setting up database $database"
  temporal-sql-tool --database "$database" create-database || echo "create-database failed: $database probably exists already"
  temporal-sql-tool --database "$database" setup-schema --version 0.0
  temporal-sql-tool --database "$database" update-schema --schema-dir "$versioned"
}

prepare "${TEMPORAL_DB:-temporal}" temporal
prepare "${TEMPORAL_VISIBILITY_DB:-temporal_visibility}" visibility
