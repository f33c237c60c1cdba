import logging, sys
logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s")
log = logging.getLogger("app")
log.debug("hidden")
log.info("starting %s", "job")
log.warning("disk at %d%%", 91)
child = logging.getLogger("app.db")
child.error("connection lost")
logging.info("root message")
