"""The controller's circuit as checked code: SKiDL parts and nets, its ERC, netlist, BOM and schematic."""
