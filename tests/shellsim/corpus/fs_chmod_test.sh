touch run.sh
[ -x run.sh ] || echo "not executable"
chmod +x run.sh
[ -x run.sh ] && echo "executable"
chmod 600 run.sh
stat -c '%a' run.sh
chmod u=rwx,g=rx,o= run.sh
stat -c '%a %A' run.sh
