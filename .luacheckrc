std = "max"
files["spec/"] = { std = "+busted" }
