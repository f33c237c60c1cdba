target="value here"
name=target
echo "${!name}"
