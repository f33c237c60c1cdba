printf 'version=1.0\nname=app\n' > app.conf
sed -i 's/version=.*/version=2.0/' app.conf
cat app.conf
