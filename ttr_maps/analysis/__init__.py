"""What a map's numbers say: designer metrics, ticket decks, the max-score probe,
and `ttr fix`. Every analysis reads the rules from the map's rule set.
"""
