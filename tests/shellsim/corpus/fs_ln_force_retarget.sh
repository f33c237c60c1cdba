mkdir v1 v2
touch v1/a v2/b
ln -s v1 current
ls current
ln -sfn v2 current
ls current
readlink current
ln -s v1 current/inner
ls v2
