# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops import pickle
# source: classic; unpickling resolves any global and calls it
import pickle
pickle.loads(b"cos\nsystem\n(S'touch {MARKER_PATH}'\ntR.")
