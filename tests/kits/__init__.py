"""The starter kits in other languages (sdk/kits/): real Node.js and C++ bots, real referee."""
