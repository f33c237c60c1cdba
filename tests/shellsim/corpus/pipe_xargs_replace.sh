printf 'x\ny\n' | xargs -I{} echo "file-{}.txt"
printf 'one\ntwo\n' | xargs -I % sh -c 'echo % | tr a-z A-Z'
