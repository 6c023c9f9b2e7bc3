# category: process
# signal: marker
# expect: refused
# tripwire: stops import multiprocessing
# source: multiprocessing starts a new interpreter process
import multiprocessing
def touch():
    open("{MARKER_PATH}", "w").close()
process = multiprocessing.get_context("fork").Process(target=touch)
process.start()
process.join()
