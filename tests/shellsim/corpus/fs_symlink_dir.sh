mkdir -p real/dir
touch real/dir/f
ln -s real/dir shortcut
ls shortcut
cd shortcut && ls && cd ..
