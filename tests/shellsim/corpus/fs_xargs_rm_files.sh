touch t1.tmp t2.tmp keep.txt
ls *.tmp | xargs rm
ls
printf 'n1\nn2\n' | xargs -I{} touch {}.new
ls *.new
