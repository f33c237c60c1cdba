declare -A cfg=([host]=localhost [port]=8080)
if [[ -v cfg[host] ]]; then echo "host set"; fi
if [[ -z "${cfg[user]+x}" ]]; then echo "user unset"; fi
echo "${cfg[port]}"
