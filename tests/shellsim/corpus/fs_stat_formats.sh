printf 'hello' > f.txt
mkdir d
ln -s f.txt l
chmod 640 f.txt
stat -c '%n %s %a %A %F' f.txt
stat -c '%n %a %F' d
stat -c '%n %F %N' l
stat -L -c '%n %F %s' l
stat -c %s missing.txt 2>/dev/null || echo "stat failed: $?"
