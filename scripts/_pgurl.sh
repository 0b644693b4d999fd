# Sourced by scripts/backup.sh and scripts/restore.sh: PostgreSQL URLs as they may be shown.
# shellcheck shell=sh

# The URL without its password or query string (the query may carry a password too).
redacted() {
  _rest=${1#*://}
  _authority=${_rest%%/*}
  _path=${_rest#"$_authority"}
  _path=${_path%%\?*}
  case $_authority in
    *@*) _user=${_authority%@*}; _user=${_user%%:*}; _authority="$_user@${_authority##*@}" ;;
  esac
  printf '%s://%s%s' "${1%%://*}" "$_authority" "$_path"
}
