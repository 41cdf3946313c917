import ShoeboxCLI
