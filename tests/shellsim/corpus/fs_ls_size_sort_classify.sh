printf '1' > small
printf '12345' > big
printf '123' > medium
mkdir dir
touch exe; chmod +x exe
ln -s small link
ls -S small big medium
ls -F
ls -p
