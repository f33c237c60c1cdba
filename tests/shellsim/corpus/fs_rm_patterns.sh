mkdir -p build/obj
touch build/obj/a.o build/obj/b.o build/out.bin
rm build/obj/*.o
ls build/obj | wc -l
rm -r build
ls
rm -d 2>/dev/null; echo "rm no args: $?"
