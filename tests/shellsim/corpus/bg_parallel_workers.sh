for i in 1 2 3; do
  ( echo "result $i" > out_$i.txt ) &
done
wait
cat out_*.txt
