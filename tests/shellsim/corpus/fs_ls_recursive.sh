mkdir -p r/a r/b
touch r/a/1 r/b/2 r/top
ls -R r
