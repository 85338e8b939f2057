from ttr_core.cli import main

main()
