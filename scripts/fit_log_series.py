"""Coefficients of the logarithm in src/engines/spot/spot_lanes.hpp (log_of_uniform).

log m = 2 atanh s = s g(z), z = s^2, s = (m - 1) / (m + 1), m in [sqrt(1/2), sqrt(2)], so
0 <= z <= ((sqrt 2 - 1) / (sqrt 2 + 1))^2. g(z) = 2 + z h(z): the constant 2 stays exact and h, a
degree-6 polynomial, is a Chebyshev fit (near minimax) of (g(z) - 2) / z at 50 digits. Prints each
coefficient as the nearest double and the fit's largest relative error in g (about 5e-18, far below
a double's 1.1e-16). Needs mpmath: python3 -m pip install mpmath.
"""
import mpmath as mp

mp.mp.dps = 50
S_MAX = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)
Z_MAX = S_MAX**2


def h(z):
    if z == 0:
        return mp.mpf(2) / 3
    s = mp.sqrt(z)
    return (2 * mp.atanh(s) / s - 2) / z


def main():
    degree = 6
    coefficients, error = mp.chebyfit(h, [0, Z_MAX], degree + 1, error=True)  # highest power first
    print(f"z in [0, {mp.nstr(Z_MAX, 17)}], largest relative error in g: {mp.nstr(Z_MAX * error / 2, 3)}")
    for power, c in zip(range(degree, -1, -1), coefficients):
        print(f"c{power + 1} = {float(c)!r}")


if __name__ == "__main__":
    main()
