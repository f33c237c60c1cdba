touch -d '2020-01-01' first
touch -d '2021-01-01' second
touch -d '2019-01-01' zeroth
ls -t
ls -tr
