echo shared > orig
ln orig hard
echo appended >> hard
cat orig
stat -c %h orig
rm orig
cat hard
