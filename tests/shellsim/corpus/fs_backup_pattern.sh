echo v1 > config
cp config config.bak
echo v2 > config
diff config.bak config > /dev/null || echo "config changed"
cat config.bak
