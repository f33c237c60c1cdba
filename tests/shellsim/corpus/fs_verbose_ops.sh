mkdir -v logs
mkdir -pv deep/er/est
touch a.txt
cp -v a.txt logs/
mv -v a.txt b.txt
ln -sv b.txt c.txt
rm -v c.txt
rm -rv deep
