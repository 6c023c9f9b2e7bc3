# description: Check every pending order's customer and log progress with the logging module
# value: {"checked": ["c1", "c2"], "log": ["INFO:incident:customer c1 has 1 pending orders", "DEBUG:incident:tier=enterprise", "INFO:incident:customer c2 has 1 pending orders", "DEBUG:incident:tier=pro", "WARNING:incident:customer c9 missing: LookupError"]}
# limitation: the logging module is not available in run_code (print the lines instead)
import io
import logging

stream = io.StringIO()
logger = logging.getLogger("incident")
logger.setLevel(logging.DEBUG)
handler = logging.StreamHandler(stream)
handler.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
logger.addHandler(handler)

checked = []
for cid in ("c1", "c2", "c9"):
    try:
        c = await tools.get_customer(customer_id=cid)
    except ToolCallError as e:
        logger.warning("customer %s missing: %s", cid, e.type)
        continue
    pending = await tools.list_orders(customer_id=cid, status="pending")
    logger.info("customer %s has %d pending orders", c["id"], len(pending))
    logger.debug("tier=%s", c["tier"])
    checked.append(cid)

return {"checked": checked, "log": stream.getvalue().splitlines()}
