export MYVAR=hello
printenv MYVAR
printenv NOT_SET_ANYWHERE
echo "status=$?"
env | grep -c '^MYVAR=hello$'
