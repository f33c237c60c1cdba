a=set
echo "${a:+alternate}"
unset b
echo "[${b:+alternate}]"
