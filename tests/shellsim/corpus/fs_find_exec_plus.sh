mkdir logs
printf 'a\n' > logs/x.log; printf 'b\nc\n' > logs/y.log
find logs -name '*.log' -exec wc -l {} + | sort
