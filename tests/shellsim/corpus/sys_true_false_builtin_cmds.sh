true; echo $?
false; echo $?
command true && echo "command true"
env true && echo "env true"
env false || echo "env false failed"
