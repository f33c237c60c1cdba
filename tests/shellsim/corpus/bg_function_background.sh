task() { sleep 0.1; echo "task $1 done"; }
task A > a.out &
task B > b.out &
wait
cat a.out b.out
