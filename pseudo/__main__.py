from pseudo.cli import main

main()
