echo "original" > src.txt
cp src.txt dst.txt
cat dst.txt
mkdir backup
cp src.txt dst.txt backup/
ls backup
