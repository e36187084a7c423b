# MicroPython firmware manifest: freezes the tiletable package into a UF2 of its own, so its
# bytecode runs from flash instead of taking heap (hardware/README.md, "Freezing the firmware").
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/tiletable/firmware/manifest.py
# main.py stays on the Pico's filesystem (`tiletable deploy --frozen` copies it alone).
include("$(PORT_DIR)/boards/manifest.py")
package("tiletable", opt=3)
