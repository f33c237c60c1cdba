echo $(( 0x1F ))
echo $(( 010 ))
echo $(( 2#1011 ))
printf '%d\n' 0x10
