echo "hello world hello" | sed 's/hello/bye/'
echo "hello world hello" | sed 's/hello/bye/g'
echo "path/to/file" | sed 's#/#_#g'
