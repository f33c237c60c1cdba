touch f{1..12}.dat
ls | wc -l
ls -1 | head -3
ls *.dat | tail -1
