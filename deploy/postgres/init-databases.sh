#!/bin/sh
# Runs once, when the PostgreSQL volume is first created: one database per service, each owned by
# its own role that may create tables in it (the services run their migrations at startup).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  -v panel_password="$PANEL_DB_PASSWORD" -v monitor_password="$MONITOR_DB_PASSWORD" <<'SQL'
CREATE ROLE panel LOGIN PASSWORD :'panel_password';
CREATE DATABASE panel OWNER panel;
CREATE ROLE monitor LOGIN PASSWORD :'monitor_password';
CREATE DATABASE monitor OWNER monitor;
SQL
