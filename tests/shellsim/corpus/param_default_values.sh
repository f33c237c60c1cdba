unset v
echo "${v:-default}"
echo "${v-unsetonly}"
v=""
echo "[${v:-empty}] [${v-keep}]"
: "${w:=assigned}"
echo "$w"
