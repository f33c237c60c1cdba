printf 'a,1,x\nb,2,y\nc,3,z\n' > data.csv
awk -F, '{print $2}' data.csv
awk -F',' 'BEGIN{OFS="|"} {print $3,$1}' data.csv
