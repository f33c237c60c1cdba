import re
urls = ["https://example.com:8080/path/to?q=1&r=two#frag", "http://localhost/", "ftp://files.host/a.txt"]
pat = re.compile(r"^(?P<scheme>\w+)://(?P<host>[^/:]+)(?::(?P<port>\d+))?(?P<path>/[^?#]*)?(?:\?(?P<query>[^#]*))?(?:#(?P<frag>.*))?$")
for u in urls:
    m = pat.match(u)
    d = m.groupdict()
    if d["query"]:
        d["query"] = dict(kv.split("=") for kv in d["query"].split("&"))
    print(d)
