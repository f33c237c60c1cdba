read -r first rest <<< "alpha beta gamma"
echo "$first|$rest"
tr a-z A-Z <<< "shout"
