for code in 200 301 404 500 302; do
  case $code in
    2??) echo "$code success" ;;
    3??) echo "$code redirect" ;;
    4??) echo "$code client error" ;;
    5??) echo "$code server error" ;;
  esac
done
