# description: Compute phasors for a power-factor check with complex numbers and cmath, returning plain floats
# value: {"real": 22.0, "imag": 6.5, "abs": 22.940139, "phase_deg": 16.46, "back_close": true, "conj": [22.0, -6.5], "root": [0.0, 2.0], "product": "(-6.5+22j)", "repr": "(1-2j)", "power_factor": 0.959, "exp_pi": -1.0}
import cmath
import math

weather = await tools.get_weather(city="Oslo")
load = complex(weather["wind_kph"], weather["celsius"])
magnitude, angle = cmath.polar(load)
back = cmath.rect(magnitude, angle)
root = cmath.sqrt(-4)
return {
    "real": load.real, "imag": load.imag, "abs": round(abs(load), 6), "phase_deg": round(math.degrees(cmath.phase(load)), 4),
    "back_close": cmath.isclose(back, load), "conj": [load.conjugate().real, load.conjugate().imag],
    "root": [root.real, root.imag], "product": str(load * 1j), "repr": repr(complex(1, -2)),
    "power_factor": round(math.cos(angle), 4), "exp_pi": round((cmath.exp(1j * math.pi)).real, 12),
}
