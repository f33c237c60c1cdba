printf 'name=app\nversion=1.2\nport=80\n' > settings
declare -A conf
while IFS='=' read -r k v; do conf[$k]=$v; done < settings
echo "${conf[name]}@${conf[version]}:${conf[port]}"
