a=(x "y z")
declare -p a
declare -A m=([k]=v)
declare -p m
