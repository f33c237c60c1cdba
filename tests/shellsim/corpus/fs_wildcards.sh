touch file1.txt file2.txt file10.txt fileA.txt other.log
echo file?.txt
echo file[0-9]*.txt
echo *.{txt,log} | wc -w
