// ShoeboxCLI
