mkdir archive
touch r1.log r2.log keep.txt
mv *.log archive/
ls archive
ls
